// The engine thread's entry: a worker does not inherit the server's TypeScript loader, so it
// registers tsx itself before loading the engine (server/runs/engine/thread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
