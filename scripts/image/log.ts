// The image build's progress lines, on stdout like the binary build's.
export function log(msg: string): void {
  console.log(`[build-image] ${msg}`);
}
