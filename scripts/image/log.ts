// The image build's progress lines, on stdout like the binary build's.
import { logger } from '../binary/util.ts';

export const log = logger('build-image');
