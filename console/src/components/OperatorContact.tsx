import { useMeta } from '../api/session';

/**
 * "your operator, Box Ops (ops@example.co.uk)": the box's operator named with their contact
 * (SUPPORT_NAME, SUPPORT_EMAIL via GET /api/meta), as the line banners name them, so an owner
 * told to ask their operator knows who that is. Plain "your operator" until meta has loaded.
 */
export function OperatorContact() {
  const contact = useMeta().data?.helpContact;
  if (!contact) return <>your operator</>;
  return (
    <>
      your operator, {contact.name} (
      <a className="break-all font-medium underline" href={`mailto:${contact.email}`}>
        {contact.email}
      </a>
      )
    </>
  );
}
