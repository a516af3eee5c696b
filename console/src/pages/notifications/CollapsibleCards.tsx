import { createContext, useContext, useState, type ReactNode } from 'react';
import type { CardFrameProps } from '../../components/card-frame';
import { PHONE_ONLY, useMediaQuery } from '../../components/use-media-query';
import { SettingsSection } from './SettingsSection';

interface Cards {
  phone: boolean;
  open: Readonly<Record<string, boolean>>;
  toggle: (title: string) => void;
}

const CardsContext = createContext<Cards>({ phone: false, open: {}, toggle: () => undefined });

/**
 * A run of cards that a phone shows closed, each to its heading and a one-line summary, opened
 * by a tap; a wider screen shows them all open (issue 57: the Answering section was 5.8 screens
 * at 375 px). Which card is open is kept here, above the cards, so a card that comes and goes
 * (the agent's cards when the mode changes) is found as it was left.
 */
export function CollapsibleCards({ children }: { children: ReactNode }) {
  const phone = useMediaQuery(PHONE_ONLY);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const toggle = (title: string) => setOpen((o) => ({ ...o, [title]: !o[title] }));
  return <CardsContext.Provider value={{ phone, open, toggle }}>{children}</CardsContext.Provider>;
}

/**
 * One card of a CollapsibleCards run, named by its title. `keepOpen` (an unsaved change, an
 * error, a call under way) holds it open: closing it would hide what the owner has not finished.
 */
export function CollapsibleCard({ title, description, summary, keepOpen, children }: CardFrameProps) {
  const cards = useContext(CardsContext);
  return (
    <SettingsSection
      title={title}
      description={description}
      summary={summary}
      phone={cards.phone}
      open={keepOpen || Boolean(cards.open[title])}
      onToggle={() => {
        if (!keepOpen) cards.toggle(title);
      }}
    >
      {children}
    </SettingsSection>
  );
}
