package config

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/release"
)

// Type is a config's value type, named as Kafka's ConfigDef.Type.
type Type uint8

const (
	Boolean Type = iota + 1
	Int
	Short
	Long
	Double
	String
	List
)

func (t Type) String() string {
	return [...]string{"", "BOOLEAN", "INT", "SHORT", "LONG", "DOUBLE", "STRING", "LIST"}[t]
}

// Def defines one config key.
type Def struct {
	Name    string
	Type    Type
	Default string // "" with NoDefault means null
	// NullDefault marks a key whose default is null (e.g. log.retention.ms).
	NullDefault bool
	// Validate checks a parsed value (the zero Check: none).
	Validate Check
	// Since and Until bound the Kafka releases that define the key: Since
	// is the first (zero: every release kafkascope knows), Until the one
	// that removed it (zero: still defined).
	Since, Until release.Version
	// Internal keys (ConfigDef.defineInternal) are accepted when set and
	// otherwise not listed.
	Internal bool
	// Raised is the validator from a later release on: a stricter one
	// (KIP-1030's 1 MiB minimum segment size), or one a key had none of
	// before (Validate is then the older releases').
	Raised *Raise
	// Older is the default of the releases before Older.Before where it
	// differs from Default (nil: every release has Default).
	Older *OlderDefault
	// InternalBefore is the first release that lists the key (zero: as
	// Internal says): releases before it define it with defineInternal.
	InternalBefore release.Version
}

// Raise is a validator that replaces a key's Validate from release From.
type Raise struct {
	From     release.Version
	Validate Check
}

// OlderDefault is a key's default in the releases before Before: Value,
// or null.
type OlderDefault struct {
	Before release.Version
	Value  string
	Null   bool
}

// DefaultIn is the key's default in release v (the zero Version: the
// default release): its value, or null.
func (d *Def) DefaultIn(v release.Version) (value string, null bool) {
	if o := d.Older; o != nil && !orDefault(v).AtLeast(o.Before.Major, o.Before.Minor) {
		return o.Value, o.Null
	}
	return d.Default, d.NullDefault
}

// internalIn says whether release v defines the key as internal: accepted
// when set, otherwise not listed.
func (d *Def) internalIn(v release.Version) bool {
	if b := d.InternalBefore; b != (release.Version{}) && !orDefault(v).AtLeast(b.Major, b.Minor) {
		return true
	}
	return d.Internal
}

// In says whether release v defines the key (the zero Version: the
// default release).
func (d *Def) In(v release.Version) bool {
	v = orDefault(v)
	return (d.Since == release.Version{} || v.AtLeast(d.Since.Major, d.Since.Minor)) &&
		(d.Until == release.Version{} || !v.AtLeast(d.Until.Major, d.Until.Minor))
}

// check is the validator release v applies.
func (d *Def) check(v release.Version) *Check {
	if d.Raised != nil && orDefault(v).AtLeast(d.Raised.From.Major, d.Raised.From.Minor) {
		return &d.Raised.Validate
	}
	return &d.Validate
}

func orDefault(v release.Version) release.Version {
	if v == (release.Version{}) {
		return release.Default
	}
	return v
}

// Check is a config's validator, Kafka's ConfigDef.Validator, as data: a
// kind and its bounds or valid strings. The tables of configs are then
// data the linker lays out, where validator closures had to be built by
// code at start-up (14 KB of main.wasm).
type Check struct {
	Kind     CheckKind
	Min, Max float64  // AtLeast: Min; Between: Min and Max
	Valid    []string // OneOf, ListIn
}

// CheckKind names a validator of Kafka's ConfigDef.
type CheckKind uint8

const (
	NoCheck CheckKind = iota
	// AtLeast is ConfigDef.Range.atLeast(Min).
	AtLeast
	// Between is ConfigDef.Range.between(Min, Max).
	Between
	// OneOf is ConfigDef.ValidString.in(Valid...).
	OneOf
	// ListIn is ConfigDef.ValidList.in(Valid...) (cleanup.policy).
	ListIn
	// ValidVersion is a MetadataVersion that ParseProtocolVersion reads
	// (inter.broker.protocol.version).
	ValidVersion
	// MetadataVersion38 is 3.8's MetadataVersionValidator, exactly
	// (message.format.version, log.message.format.version).
	KnownMetadataVersion
	// KnownAPIVersion28 is 2.8's ApiVersionValidator, exactly
	// (inter.broker.protocol.version, message.format.version,
	// log.message.format.version): see APIVersion28.
	KnownAPIVersion28
)

// Reason is the validator's message for a parsed value it rejects, as
// Kafka words it, or "" for a valid one.
func (c *Check) Reason(v any) string {
	switch c.Kind {
	case AtLeast:
		if num(v) < c.Min {
			return "Value must be at least " + fmtNum(c.Min)
		}
	case Between:
		if n := num(v); n < c.Min {
			return "Value must be at least " + fmtNum(c.Min)
		} else if n > c.Max {
			return "Value must be no more than " + fmtNum(c.Max)
		}
	case OneOf:
		if !slices.Contains(c.Valid, v.(string)) {
			return "String must be one of: " + strings.Join(c.Valid, ", ")
		}
	case ListIn:
		for _, item := range v.([]string) {
			if !slices.Contains(c.Valid, item) {
				return "Invalid value " + item + " for configuration cleanup.policy: String must be one of: " + strings.Join(c.Valid, ", ")
			}
		}
	case ValidVersion:
		if _, err := ParseProtocolVersion(v.(string)); err != nil {
			return "Version " + v.(string) + " is not a valid version"
		}
	case KnownMetadataVersion:
		if _, ok := MetadataVersion38(v.(string)); !ok {
			return "Version " + v.(string) + " is not a valid version"
		}
	case KnownAPIVersion28:
		if _, ok := APIVersion28(v.(string)); !ok {
			// ApiVersion.apply (ApiVersion.scala:130 at 2.8.0) quotes it.
			return "Version `" + v.(string) + "` is not a valid version"
		}
	}
	return ""
}

// ConfigError is Kafka's ConfigException: "Invalid value X for configuration
// NAME: reason".
type ConfigError struct {
	Name, Value, Reason string
}

func (e *ConfigError) Error() string {
	s := "Invalid value " + e.Value + " for configuration " + e.Name
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// Parse converts a string value to the key's type and validates it as
// release rel does.
func (d *Def) Parse(value string, rel release.Version) (any, error) {
	v, reason := parseTyped(d.Type, strings.TrimSpace(value))
	if reason != "" {
		return nil, &ConfigError{d.Name, value, reason}
	}
	if r := d.check(rel).Reason(v); r != "" {
		return nil, &ConfigError{d.Name, value, r}
	}
	return v, nil
}

func parseTyped(t Type, s string) (any, string) {
	switch t {
	case Boolean:
		switch strings.ToLower(s) {
		case "true":
			return true, ""
		case "false":
			return false, ""
		}
		return nil, "Expected value to be either true or false"
	case Int:
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return nil, "Not a number of type INT"
		}
		return int64(n), ""
	case Short:
		n, err := strconv.ParseInt(s, 10, 16)
		if err != nil {
			return nil, "Not a number of type SHORT"
		}
		return int64(n), ""
	case Long:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, "Not a number of type LONG"
		}
		return n, ""
	case Double:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) {
			return nil, "Not a number of type DOUBLE"
		}
		return f, ""
	case List:
		if s == "" {
			return []string{}, ""
		}
		parts := strings.Split(s, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts, ""
	}
	return s, ""
}

func num(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
