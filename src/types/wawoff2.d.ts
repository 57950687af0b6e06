// wawoff2 ships no types; this is the part of its API we use.
declare module 'wawoff2' {
  const wawoff2: {
    decompress(input: Uint8Array): Promise<Uint8Array>;
    compress(input: Uint8Array): Promise<Uint8Array>;
  };
  export default wawoff2;
}
