package record

import "errors"

// Errors returned (wrapped, with detail) by this package. Test with errors.Is.
//
// The split matters to log recovery: a batch cut short at the end of a
// segment (ErrTruncated) is the normal trace of a crash mid-write and is
// simply truncated away, while ErrCorrupt means bytes that are present are
// wrong. A wrong magic byte is reported as both ErrMagic and ErrCorrupt,
// since this package reads only magic v2 and anything else in its place is
// structurally wrong.
var (
	// ErrTruncated: the buffer ends before the batch does.
	ErrTruncated = errors.New("record: truncated batch")
	// ErrCorrupt: CRC mismatch or impossible structure.
	ErrCorrupt = errors.New("record: corrupt batch")
	// ErrMagic: the magic byte is not 2.
	ErrMagic = errors.New("record: unsupported magic")
	// ErrUnsupportedCompression: the batch is compressed and this package
	// cannot read its records. The header and CRC were valid.
	ErrUnsupportedCompression = errors.New("record: compressed batch not supported")
)
