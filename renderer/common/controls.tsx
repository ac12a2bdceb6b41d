// Small shared controls: a button that can show it is busy, a badge, and a loading line.

import './common.css';
import type { ButtonHTMLAttributes, ReactNode } from 'react';

type Variant = 'primary' | 'default' | 'link';

export function Button({
  variant = 'default',
  busy = false,
  children,
  className,
  disabled,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  const classes = ['btn', variant === 'default' ? '' : variant, className ?? ''].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {children}
    </button>
  );
}

export function Badge({ tone = 'neutral', title, children }: { tone?: 'neutral' | 'warn' | 'good' | 'bad'; title?: string; children: ReactNode }) {
  return (
    <span className={`badge ${tone}`} title={title}>
      {children}
    </span>
  );
}

export function Loading({ what }: { what: string }) {
  return <div className="loading">Loading {what}…</div>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
