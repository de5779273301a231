import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Placeholder shell until the dashboard (issue 5) lands.
function App() {
  return (
    <main>
      <h1>Browserdesk</h1>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
