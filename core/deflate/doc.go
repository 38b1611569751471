// Package deflate writes DEFLATE streams (RFC 1951), for the session
// links the page shares (core/timeline): raw deflate in base64url, which
// compress/flate's reader decodes.
//
// Why not compress/flate's writer: its compressor (every level, its
// huffman bit writer and token tables) was 22 KB of the page's
// brotli-compressed main.wasm, and the page has a budget of 2.0 MB for a
// first visit. This writer is one final block: LZ77 over a 32 KiB window
// with hash chains and one step of lazy matching, then the fixed Huffman
// codes of RFC 1951 section 3.2.6 or codes built for the block's own
// frequencies (section 3.2.7), whichever is shorter. Its links are as
// short as flate.BestCompression's, within a few percent either way
// (TestEncodeCompressesLikeFlate). Old links decode as before: the format
// is the same.
package deflate
