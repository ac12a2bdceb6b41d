// What a fresh start opens: the most recent store that still exists, else the bundled demo (created
// on first use), so nothing has to be set up before the workbench shows real data.

import { existsSync } from 'node:fs';
import type { WorkbenchService } from './service';

export async function openFirstStore(service: WorkbenchService): Promise<void> {
  const last = service.recentStores().find((r) => existsSync(r.path));
  if (last) await service.open(last.path);
  else await service.openDemo();
}
