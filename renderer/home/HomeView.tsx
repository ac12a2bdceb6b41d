// Home: the open store and everything that changes which store is open or what it holds.

import { useSession } from '../common/session';
import { ExportPanel, ImportPanel } from './BundlePanel';
import { GeneratePanel } from './GeneratePanel';
import { LlmPanel } from './LlmPanel';
import { OpenPanel, RecentStores } from './OpenPanel';
import { StoreSummary } from './StoreSummary';
import './home.css';

export function HomeView() {
  const web = useSession((s) => s.session?.mode !== 'electron');
  const storePath = useSession((s) => s.session?.store?.path ?? null);
  const hasStore = storePath !== null;
  return (
    <div className="home">
      <div className="home-col">
        <h1 className="view-title">Store</h1>
        <StoreSummary />
        <RecentStores />
        <LlmPanel />
      </div>
      <div className="home-col">
        <h1 className="view-title">Data</h1>
        <OpenPanel web={web} />
        <ImportPanel hasStore={hasStore} web={web} />
        <ExportPanel key={storePath} hasStore={hasStore} web={web} />
        <GeneratePanel web={web} />
      </div>
    </div>
  );
}
