// Who is labelling: the researcher's name, remembered in this browser profile (localStorage), shared by
// the labelling queue and the inspector's "label with…" action. Labels carry it as their `author`, and
// the queue skips pairs that author has already judged.

import { create } from 'zustand';

const STORAGE_KEY = 'workbench-label-author';
/** The contract's limit on a label's author. */
export const AUTHOR_MAX = 200;

function stored(): string {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? '';
  } catch {
    return ''; // storage disabled: the name lasts for this page only
  }
}

interface AuthorState {
  /** The trimmed name, or '' when none is set (labelling is refused until one is). */
  author: string;
  setAuthor(name: string): void;
}

export const useAuthorStore = create<AuthorState>((set) => ({
  author: stored().trim(),
  setAuthor(name) {
    const author = name.trim().slice(0, AUTHOR_MAX);
    try {
      if (author) localStorage.setItem(STORAGE_KEY, author);
      else localStorage.removeItem(STORAGE_KEY);
    } catch {
      // storage disabled: keep it in memory
    }
    set({ author });
  },
}));

/** The remembered author name ('' when unset) and its setter. */
export function useAuthor(): [string, (name: string) => void] {
  return [useAuthorStore((s) => s.author), useAuthorStore((s) => s.setAuthor)];
}
