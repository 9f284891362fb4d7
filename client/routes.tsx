// The route table of spec section 2. Login, register and the third-party result
// pages sit outside the shared layout; everything else inside it.
import { Navigate, type RouteObject } from "react-router-dom";
import { Layout } from "./layout/Layout";
import Chat from "./pages/Chat";
import ContactUs from "./pages/ContactUs";
import Dashboard from "./pages/Dashboard";
import Files from "./pages/Files";
import GdriveConnected from "./pages/GdriveConnected";
import Login from "./pages/Login";
import NotFound from "./pages/NotFound";
import Payment from "./pages/Payment";
import Pricing from "./pages/Pricing";
import PrivacyPolicy from "./pages/PrivacyPolicy";
import Register from "./pages/Register";
import SettingsComingSoon from "./pages/SettingsComingSoon";
import SignUpSuccess from "./pages/SignUpSuccess";
import SubscriptionSuccess from "./pages/SubscriptionSuccess";
import TermsOfUse from "./pages/TermsOfUse";

export const routes: RouteObject[] = [
  { path: "/app/auth/login", element: <Login /> },
  { path: "/app/auth/register", element: <Register /> },
  { path: "/sign-up-success", element: <SignUpSuccess /> },
  {
    element: <Layout />,
    children: [
      { path: "/", element: <Chat /> },
      { path: "/app/dashboard", element: <Dashboard /> },
      // The default destination after a Google sign-in (spec section 9) is /dashboard.
      { path: "/dashboard", element: <Navigate to="/app/dashboard" replace /> },
      { path: "/app/files", element: <Files /> },
      { path: "/app/chat", element: <Chat /> },
      { path: "/app/settings", element: <SettingsComingSoon /> },
      { path: "/app/payment", element: <Payment /> },
      { path: "/app/pricing", element: <Pricing /> },
      { path: "/app/terms-of-use", element: <TermsOfUse /> },
      { path: "/app/privacy-policy", element: <PrivacyPolicy /> },
      { path: "/app/contact-us", element: <ContactUs /> },
      { path: "/app/subscription/success", element: <SubscriptionSuccess /> },
      { path: "/gdrive-connected", element: <GdriveConnected /> },
      { path: "*", element: <NotFound /> },
    ],
  },
];
