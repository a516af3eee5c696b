// The services callers can book: each as a card with Edit and Archive (asked first; its
// bookings keep its name), and a form to add one.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ApiBookingService } from '../../../../contract/schemas/booking';
import { addService, archiveService, getServices, saveService } from '../../api/booking';
import { keys } from '../../api/keys';
import { Button, Card, CardHeader, ErrorState, Skeleton } from '../../components/ui';
import { serviceDepositWords } from '../../lib/deposit-words';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { Confirm } from './Confirm';
import { ServiceForm } from './ServiceForm';

export function ServiceList() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: keys.booking.services, queryFn: getServices });
  const [editing, setEditing] = useState<number | null>(null);
  const [archiving, setArchiving] = useState<ApiBookingService | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: keys.booking.services });
  let list;
  if (query.isPending) list = <Skeleton className="h-20 w-full" />;
  else if (query.isError) list = <ErrorState title="Unable to load services" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />;
  else if (query.data.services.length === 0) list = <p className="text-sm text-slate-600 dark:text-slate-400">No services yet: add the first one below. Callers can book only once there is one.</p>;
  else
    list = (
      <ul className="grid grid-cols-1 gap-3" aria-label="Services">
        {query.data.services.map((s) => (
          <li key={s.id} className="min-w-0 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
            {editing === s.id ? (
              <ServiceForm
                service={s}
                submitLabel="Save service"
                onCancel={() => setEditing(null)}
                onSave={async (body) => {
                  await saveService(s.id, body);
                  toast({ title: 'Service saved' });
                  setEditing(null);
                  await refresh();
                }}
              />
            ) : (
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="break-words font-semibold">{s.name}</p>
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    {s.durationMinutes} minutes{s.bufferMinutes ? `, then a ${s.bufferMinutes}-minute break` : ''}
                  </p>
                  {serviceDepositWords(s) && <p className="text-sm text-slate-600 dark:text-slate-400">{serviceDepositWords(s)}</p>}
                  {s.agentSentence && <p className="mt-1 break-words text-sm italic text-slate-600 dark:text-slate-400">“{s.agentSentence}”</p>}
                </div>
                <div className="flex gap-2">
                  <Button size="sm" variant="outline" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s.id)}>Edit</Button>
                  <Button size="sm" variant="outline" aria-label={`Archive ${s.name}`} onClick={() => setArchiving(s)}>Archive</Button>
                </div>
              </div>
            )}
          </li>
        ))}
      </ul>
    );
  return (
    <Card aria-labelledby="services-title">
      <CardHeader title={<span id="services-title">Services</span>} description="What callers can book, how long it takes, and the break you need after it" />
      <div className="grid gap-6 p-5">
        {list}
        <section aria-labelledby="add-service-title" className="grid gap-3">
          <h3 id="add-service-title" className="text-sm font-semibold">Add a service</h3>
          <ServiceForm
            submitLabel="Add service"
            onSave={async (body) => {
              await addService(body);
              toast({ title: 'Service added' });
              await refresh();
            }}
          />
        </section>
      </div>
      <Confirm
        open={archiving !== null}
        title={`Archive ${archiving?.name ?? 'this service'}?`}
        description="Callers can no longer book it. Its bookings stay, under its name."
        confirmLabel="Archive service"
        onConfirm={async () => {
          await archiveService(archiving!.id);
          toast({ title: 'Service archived' });
          await refresh();
        }}
        onClose={() => setArchiving(null)}
      />
    </Card>
  );
}
