import { AlertCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Card } from '../components/ui';

export default function NotFound() {
  return (
    <div className="flex min-h-[60vh] w-full items-center justify-center p-4">
      <Card className="w-full max-w-md p-6">
        <div className="mb-3 flex items-center gap-2">
          <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
          <h1 className="text-2xl font-bold">404 Page Not Found</h1>
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">The page you are looking for does not exist or has moved.</p>
        <Link to="/" className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
          Go to the home page
        </Link>
      </Card>
    </div>
  );
}
