import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createQueryClient } from './api/client';
import App from './App';
import './index.css';
import { applyTheme, initialTheme } from './layout/theme';
import { registerServiceWorker } from './sw/register';
import { Toaster } from './toast/Toaster';

// Before the first paint, so a dark-theme user never sees a white flash.
applyTheme(initialTheme());

const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
        <Toaster />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);

// Installable console, offline page, push alerts (issue 54).
registerServiceWorker();
