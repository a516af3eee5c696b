import type { ComponentType, ReactNode } from 'react';
import { Card, CardHeader } from './ui';

/**
 * What a self-contained card (Call my line, Try your AI agent) hands to whoever frames it: its
 * heading, a one-line summary of where it stands, and whether it holds something the owner must
 * not lose sight of (a live call, an error). A long page may frame it as a card a phone can
 * close (pages/notifications/CollapsibleCards); anywhere else it is the plain card.
 */
export interface CardFrameProps {
  title: string;
  description: string;
  summary: string;
  keepOpen: boolean;
  className?: string;
  children: ReactNode;
}

export type CardFrame = ComponentType<CardFrameProps>;

export function PlainCard({ title, description, className, children }: CardFrameProps) {
  return (
    <Card className={className}>
      <CardHeader title={title} description={description} />
      {children}
    </Card>
  );
}
