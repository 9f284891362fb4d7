// The route table of spec section 2. Login, register and the third-party result
// pages sit outside the shared layout; everything else inside it. The chat (the
// home page) is in the main bundle; every other page loads on first visit.
import { Navigate, type RouteObject } from "react-router-dom";
import { Layout } from "./layout/Layout";
import Chat from "./pages/Chat";
import { PageError } from "./pages/PageError";

type PageModule = { default: React.ComponentType };
const page = (load: () => Promise<PageModule>) => async () => ({ Component: (await load()).default });

const pagesInLayout: RouteObject[] = [
  { path: "/", element: <Chat /> },
  { path: "/app/chat", element: <Chat /> },
  { path: "/app/dashboard", lazy: page(() => import("./pages/Dashboard")) },
  // The default destination after a Google sign-in (spec section 9) is /dashboard.
  { path: "/dashboard", element: <Navigate to="/app/dashboard" replace /> },
  { path: "/app/files", lazy: page(() => import("./pages/Files")) },
  { path: "/app/settings", lazy: page(() => import("./pages/SettingsComingSoon")) },
  { path: "/app/payment", lazy: page(() => import("./pages/Payment")) },
  { path: "/app/pricing", lazy: page(() => import("./pages/Pricing")) },
  { path: "/app/terms-of-use", lazy: page(() => import("./pages/TermsOfUse")) },
  { path: "/app/privacy-policy", lazy: page(() => import("./pages/PrivacyPolicy")) },
  { path: "/app/contact-us", lazy: page(() => import("./pages/ContactUs")) },
  { path: "/app/subscription/success", lazy: page(() => import("./pages/SubscriptionSuccess")) },
  { path: "/gdrive-connected", lazy: page(() => import("./pages/GdriveConnected")) },
  { path: "*", lazy: page(() => import("./pages/NotFound")) },
];

export const routes: RouteObject[] = [
  { path: "/app/auth/login", lazy: page(() => import("./pages/Login")), errorElement: <PageError /> },
  { path: "/app/auth/register", lazy: page(() => import("./pages/Register")), errorElement: <PageError /> },
  { path: "/sign-up-success", lazy: page(() => import("./pages/SignUpSuccess")), errorElement: <PageError /> },
  {
    element: <Layout />,
    errorElement: <PageError />,
    // a page that could not be loaded is said in its place, the layout staying around it
    children: [{ errorElement: <PageError />, children: pagesInLayout }],
  },
];
