/**
 * This machine's provider executable package (from the build's dist/provider/native) laid out in a project's
 * node_modules as npm installs it: beside the library's unpacked tarball, or in the project of a Python,
 * Java, Go or .NET user (whose jsii runtime installs the library alone).
 */
import * as fs from 'fs';
import * as path from 'path';
import { executableFileName, platformPackageName, terraformPlatform } from '../../lib/install';

const ROOT = path.join(__dirname, '..', '..');
const { writePlatformPackage } = require('../../scripts/platform-packages') as {
  writePlatformPackage(options: { platform: string; file: string; version: string; dir: string }): unknown;
};

/** Writes this platform's package into `dir` (default: `<project>/node_modules/<its name>`); returns the folder. */
export function writeThisPlatformPackage(project: string, dir?: string): string {
  const platform = terraformPlatform();
  const target = dir ?? path.join(project, 'node_modules', platformPackageName(platform));
  writePlatformPackage({
    platform,
    file: path.join(ROOT, 'dist', 'provider', 'native', platform, executableFileName('googleiam', platform)),
    version: (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    dir: target,
  });
  return target;
}
