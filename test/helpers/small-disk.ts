/**
 * A small tmpfs of the test's own, to fill up for real (ENOSPC): the emulator's helper, which
 * the service's store tests use too.
 */
export { mountSmallDisk, type SmallDisk } from '../../packages/platform-emulator/test/helpers/small-disk.js';
