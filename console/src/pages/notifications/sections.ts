// The sections of Notification Settings, in tab order. Each section is one component with its
// own save; a control that belongs to a section is added inside that section's component, a new
// section is one more entry here.
import type { ComponentType } from 'react';
import AnsweringSection from './AnsweringSection';
import CallHandling from './CallHandling';
import DeliverySection from './DeliverySection';
import GreetingSection from './GreetingSection';
import ScreeningSection from './ScreeningSection';
import WebhookSettings from './WebhookSettings';
import PushDevicesSection from './PushDevicesSection';

export interface SettingsSection {
  /** In the address: /dashboard/notifications?section=greeting. */
  id: string;
  label: string;
  Component: ComponentType;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'answering', label: 'Answering', Component: AnsweringSection },
  { id: 'greeting', label: 'Greeting', Component: GreetingSection },
  { id: 'delivery', label: 'Delivery', Component: DeliverySection },
  { id: 'call-handling', label: 'Call handling', Component: CallHandling },
  { id: 'screening', label: 'Screening', Component: ScreeningSection },
  { id: 'webhooks', label: 'Webhooks', Component: WebhookSettings },
  // Push alerts on the owner's devices (issue 54).
  { id: 'alerts', label: 'Alerts', Component: PushDevicesSection },
];

export const SECTION_PARAM = 'section';

/** The section an address names, else the first. */
export function sectionFor(id: string | null): SettingsSection {
  return SETTINGS_SECTIONS.find((s) => s.id === id) ?? SETTINGS_SECTIONS[0]!;
}
