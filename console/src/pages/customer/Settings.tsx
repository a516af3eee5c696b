import { useState, type FormEvent } from 'react';
import { useSession } from '../../api/session';
import { Button, Card, CardHeader, Field, Input, PageHeader } from '../../components/ui';
import { toast } from '../../toast/use-toast';

/** SPEC.md §2: this screen's save only confirms with a toast; it makes no server call. */
export default function Settings() {
  const { user } = useSession();
  const [phone, setPhone] = useState(user?.phoneNumber ?? '');
  const [forwardTo, setForwardTo] = useState(user?.forwardToNumber ?? '');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    toast({ title: 'Settings saved' });
  };

  return (
    <>
      <PageHeader title="Settings" subtitle="Manage your account and preferences" />
      <form onSubmit={onSubmit} className="grid gap-6">
        <Card>
          <CardHeader title="Account" />
          <div className="grid gap-5 p-5">
            <Field label="Email Address" hint="Email cannot be changed">
              <Input type="email" value={user?.email ?? ''} disabled readOnly />
            </Field>
            <Field label="Phone Number">
              <Input type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} autoComplete="tel" />
            </Field>
          </div>
        </Card>
        <Card>
          <CardHeader title="Call Forwarding" />
          <div className="grid gap-5 p-5">
            <Field label="Forward To Number" hint="All calls will be recorded and transcribed.">
              <Input type="tel" value={forwardTo} onChange={(e) => setForwardTo(e.target.value)} />
            </Field>
          </div>
        </Card>
        <div className="flex justify-end">
          <Button type="submit" size="lg">
            Save Changes
          </Button>
        </div>
      </form>
    </>
  );
}
