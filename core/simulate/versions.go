package simulate

import (
	"kafkascope/core/release"
)

// Releases are the release lines the simulator runs and draws from: the
// ones the engine runs, without the ZooKeeper era, whose faults (an
// ensemble member crash, a session expiry, a broker cut from ZooKeeper)
// and checkers are not built yet.
func Releases() []release.Release {
	var out []release.Release
	for _, r := range release.Simulated() {
		if !r.ZooKeeper {
			out = append(out, r)
		}
	}
	return out
}

// RunnableVersion reads a --version (or a link's version=) for the
// simulator: a release the engine runs that the simulator runs too.
func RunnableVersion(s string) (release.Version, error) {
	v, err := release.Runnable(s)
	if err != nil {
		return release.Version{}, err
	}
	return v, nil
}
