// Package atomicfile writes a file whole or not at all, for the build's
// scripts: a build reading the file while a script rewrites it (another
// make wasm running at the same time) never sees it half written.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces name with data through a temporary file in the same
// directory, renamed over it once written and closed.
func Write(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
