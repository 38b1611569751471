package player

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"kafkascope/core/simulate"
	"kafkascope/core/urlquery"
)

// SimLink is a simulator run a link asks for: the seed and the options
// that reproduce it (what `kafkasim simulate --seed N` is given).
type SimLink struct {
	Seed uint64
	Opts simulate.Options
}

// maxLinkConfigs bounds the config=k=v parts of a link.
const maxLinkConfigs = 16

// simParts are the parts a #sim= link may have.
var simParts = map[string]bool{"sim": true, "config": true, "faults": true, "minutes": true, "groups": true, "version": true, "lang": true}

// parseSimLink reads sim=<seed>[&config=k=v]...[&faults=N][&minutes=N]
// [&groups=1][&version=V], as simulate.LinkHash writes it, with the CLI's bounds. The
// input is untrusted: every part is checked, an unknown config key is
// refused as the CLI refuses it.
func parseSimLink(h urlquery.Values) (*SimLink, error) {
	for _, k := range slices.Sorted(maps.Keys(h)) {
		switch {
		case !simParts[k]:
			return nil, unknownPart(k, " of a simulator link")
		case k != "config" && len(h[k]) > 1:
			return nil, fmt.Errorf("%w: %s is given %d times", ErrBadLink, k, len(h[k]))
		}
	}
	seed, err := strconv.ParseUint(h.Get("sim"), 10, 64)
	if err != nil || seed == 0 {
		return nil, fmt.Errorf("%w: sim=%q is not a seed (a whole number from 1)", ErrBadLink, h.Get("sim"))
	}
	sl := &SimLink{Seed: seed}
	if cs := h["config"]; len(cs) > 0 {
		if len(cs) > maxLinkConfigs {
			return nil, fmt.Errorf("%w: more than %d configs", ErrBadLink, maxLinkConfigs)
		}
		sl.Opts.Overrides = map[string]string{}
		for _, kv := range cs {
			k, v, err := simulate.ParseOverride(kv)
			if err != nil {
				return nil, fmt.Errorf("%w: config %q: %v", ErrBadLink, kv, err)
			}
			if _, dup := sl.Opts.Overrides[k]; dup {
				return nil, fmt.Errorf("%w: config %s is given twice", ErrBadLink, k)
			}
			sl.Opts.Overrides[k] = v
		}
	}
	if sl.Opts.Faults, err = linkInt(h, "faults", simulate.MaxFaults); err != nil {
		return nil, err
	}
	if sl.Opts.Minutes, err = linkInt(h, "minutes", simulate.MaxMinutes); err != nil {
		return nil, err
	}
	switch g := h.Get("groups"); g {
	case "", "1":
	case "0":
		sl.Opts.NoGroups = true
	default:
		return nil, fmt.Errorf("%w: groups=%q: expected 1 or 0", ErrBadLink, g)
	}
	if v := h.Get("version"); v != "" {
		rv, err := simulate.RunnableVersion(v)
		if err != nil {
			return nil, fmt.Errorf("%w: version=%q: %v", ErrBadLink, v, err)
		}
		sl.Opts.Version = rv
	}
	return sl, nil
}

// linkInt reads an optional whole number 0..most (0 when absent).
func linkInt(h urlquery.Values, key string, most int) (int, error) {
	s := h.Get(key)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > most {
		return 0, fmt.Errorf("%w: %s=%q: expected a whole number from 0 to %d", ErrBadLink, key, s, most)
	}
	return n, nil
}

// Hash is the link's #part (without the language).
func (sl *SimLink) Hash() string { return simulate.LinkHash(sl.Seed, sl.Opts) }

// Command is the CLI command that replays the run.
func (sl *SimLink) Command() string {
	return fmt.Sprintf("go run ./scripts/kafkasim simulate --seed %d%s --trace", sl.Seed, sl.Opts.Flags())
}
