// electron-builder's beforePack hook (package.json "build"): before it packs each platform and
// architecture, make sure the Electron build of better-sqlite3 for that target is in native/ (by running
// electron/native/prepare.ts, as `npm run native:electron` does), for the platform's extraResources to copy
// into the package. electron-builder quietly skips an extraResources folder that does not exist, so without
// this a package could ship without the binary and fail on its first store; here the dist stops instead.
// Plain JavaScript: electron-builder imports it as it is.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** builder-util's Arch enum, by value (test/electron/native.test.ts checks it against electron-builder's). */
export const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** The target in process.platform and process.arch words, which the Electron app will see at run time. */
export function targetOf(context) {
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const arch = ARCH_NAMES[context.arch];
  // armv7l is 'arm' to process.arch, and a universal macOS app would need both builds merged: neither is set up.
  if (arch !== 'ia32' && arch !== 'x64' && arch !== 'arm64') {
    throw new Error(`better-sqlite3 for Electron: packaging for ${platform}-${arch ?? context.arch} is not supported (x64, arm64 and ia32 are)`);
  }
  return { platform, arch };
}

export default function beforePack(context) {
  const { platform, arch } = targetOf(context);
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'electron/native/prepare.ts', '--platform', platform, '--arch', arch], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    throw new Error(`the Electron build of better-sqlite3 for ${platform}-${arch} could not be prepared (see above), and the package cannot open a store without it`);
  }
}
