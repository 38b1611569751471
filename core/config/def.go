package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
	// Validate checks a parsed value; the message is Kafka's validator text.
	Validate func(v any) string
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

// Parse converts a string value to the key's type and validates it.
func (d *Def) Parse(value string) (any, error) {
	v, reason := parseTyped(d.Type, strings.TrimSpace(value))
	if reason != "" {
		return nil, &ConfigError{d.Name, value, reason}
	}
	if d.Validate != nil {
		if r := d.Validate(v); r != "" {
			return nil, &ConfigError{d.Name, value, r}
		}
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

func atLeast(min float64) func(any) string {
	return func(v any) string {
		if num(v) < min {
			return "Value must be at least " + fmtNum(min)
		}
		return ""
	}
}

func between(min, max float64) func(any) string {
	return func(v any) string {
		if n := num(v); n < min {
			return "Value must be at least " + fmtNum(min)
		} else if n > max {
			return "Value must be no more than " + fmtNum(max)
		}
		return ""
	}
}

func oneOf(valid ...string) func(any) string {
	return func(v any) string {
		for _, s := range valid {
			if v.(string) == s {
				return ""
			}
		}
		return "String must be one of: " + strings.Join(valid, ", ")
	}
}

func listIn(valid ...string) func(any) string {
	return func(v any) string {
		for _, item := range v.([]string) {
			ok := false
			for _, s := range valid {
				ok = ok || item == s
			}
			if !ok {
				return fmt.Sprintf("Invalid value %s for configuration cleanup.policy: String must be one of: %s", item, strings.Join(valid, ", "))
			}
		}
		return ""
	}
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
