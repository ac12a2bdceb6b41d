// Types for before-pack.mjs (plain JavaScript, because electron-builder imports it as it is).

/** The part of electron-builder's BeforePackContext the hook reads. */
export interface PackTarget {
  electronPlatformName: string;
  /** builder-util's Arch enum value. */
  arch: number;
}

export declare const ARCH_NAMES: readonly string[];
export declare function targetOf(context: PackTarget): { platform: string; arch: string };
export default function beforePack(context: PackTarget): void;
