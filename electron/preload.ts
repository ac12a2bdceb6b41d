// The preload: the renderer's only bridge to the main process. It exposes one named function per
// contract call (each bound to its own channel; there is no generic invoke), and one listener for the
// main process's events (menu actions that change the store or start a job).

import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CALL_NAMES, type CallName, channelOf, EVENT_CHANNEL, type WorkbenchBridge } from '../shared/contract';
import type { WorkbenchEvent } from '../shared/views';

const bridge = Object.fromEntries(
  CALL_NAMES.map((name: CallName) => [name, (args: unknown) => ipcRenderer.invoke(channelOf(name), args)]),
) as WorkbenchBridge;

const events = {
  /** Calls `listener` for each event; returns the function that stops listening. */
  subscribe(listener: (event: WorkbenchEvent) => void): () => void {
    const wrapped = (_e: IpcRendererEvent, event: WorkbenchEvent): void => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  },
};

contextBridge.exposeInMainWorld('workbench', bridge);
contextBridge.exposeInMainWorld('workbenchEvents', events);
