import { useCallback, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/ui';
import { Tabs } from '../../components/Tabs';
import { UNSAVED_SECTION_CHANGES, UnsavedChangesScope } from '../../components/use-unsaved-changes';
import ConfirmDestinations from './ConfirmDestinations';
import { SECTION_PARAM, SETTINGS_SECTIONS, sectionFor } from './sections';

/**
 * Notification Settings as sections (issue 29): one section shown at a time, each with its own
 * save. Leaving a section with unsaved edits asks first, as leaving the page does.
 */
export default function NotificationSettings() {
  const [params, setParams] = useSearchParams();
  const section = sectionFor(params.get(SECTION_PARAM));
  // The forms of the open section that hold unsaved edits (reported by useUnsavedChangesWarning).
  const dirtyForms = useRef(new Set<string>());
  const report = useCallback((form: string, dirty: boolean) => {
    if (dirty) dirtyForms.current.add(form);
    else dirtyForms.current.delete(form);
  }, []);
  const open = (id: string) => {
    if (dirtyForms.current.size > 0 && !window.confirm(UNSAVED_SECTION_CHANGES)) return;
    const next = new URLSearchParams(params);
    next.set(SECTION_PARAM, id);
    setParams(next, { replace: true });
  };
  const { Component } = section;
  return (
    <>
      <PageHeader title="Notification Settings" subtitle="Configure how you receive call summaries" />
      {/* Above the other sections: a destination waiting for its code matters whichever is open (Delivery shows it under its field). */}
      {section.id !== 'delivery' && <ConfirmDestinations />}
      <UnsavedChangesScope.Provider value={report}>
        <Tabs label="Settings sections" tabs={SETTINGS_SECTIONS} current={section.id} onSelect={open}>
          {/* Keyed: a section left without saving starts again from what the server holds. */}
          <Component key={section.id} />
        </Tabs>
      </UnsavedChangesScope.Provider>
    </>
  );
}
