// The Settings dialog (spec section 2): Profile, Security (with account deletion),
// Subscription and Appearance (light/dark) tabs, plus the Referral panel that shows only when the current
// tab is referral.
import { useSnapshot } from "valtio";
import { appInfo, closeSettings, setSettingsTab, type SettingsTab } from "../../state/app";
import { Modal } from "../Modal";
import { AppearancePanel } from "./AppearancePanel";
import { DeleteAccount } from "./DeleteAccount";
import { ProfilePanel } from "./ProfilePanel";
import { ReferralPanel } from "./ReferralPanel";
import { SecurityPanel } from "./SecurityPanel";
import { SubscriptionPanel } from "./SubscriptionPanel";

const TABS: { id: SettingsTab; label: string }[] = [
  { id: "profile", label: "Profile" },
  { id: "security", label: "Security" },
  { id: "subscription", label: "Subscription" },
  { id: "appearance", label: "Appearance" },
];

export function SettingsDialog() {
  const { isOpenSettingsModal, currentTab } = useSnapshot(appInfo);
  if (!isOpenSettingsModal) return null;

  return (
    <Modal title="Settings" onClose={closeSettings} className="settings-modal" closeButton>
      <div className="settings-body">
        <div className="settings-tabs" role="tablist" aria-orientation="vertical">
          {TABS.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`settings-tab-${tab.id}`}
              aria-selected={currentTab === tab.id}
              aria-controls={`settings-panel-${tab.id}`}
              className={currentTab === tab.id ? "active" : ""}
              onClick={() => setSettingsTab(tab.id)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <div className="settings-panel" role="tabpanel" id={`settings-panel-${currentTab}`}>
          {/* keyed so that switching tabs or reopening starts with no stale status message */}
          {currentTab === "profile" && <ProfilePanel key="profile" onCancel={closeSettings} />}
          {currentTab === "security" && (
            <>
              <SecurityPanel key="security" onCancel={closeSettings} />
              <DeleteAccount key="delete-account" />
            </>
          )}
          {currentTab === "subscription" && <SubscriptionPanel key="subscription" />}
          {currentTab === "appearance" && <AppearancePanel key="appearance" />}
          {currentTab === "referral" && <ReferralPanel key="referral" />}
        </div>
      </div>
    </Modal>
  );
}
