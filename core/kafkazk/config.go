package kafkazk

import (
	"slices"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/jsonvalue"
)

// ConfigEntry is one config override, for the ordered forms of the config
// codecs.
type ConfigEntry struct {
	Name, Value string
}

// EncodeEntityConfig is ConfigEntityZNode.encode for overrides set into
// the Properties in the order of their names (Java's String.compareTo).
// Use EncodeEntityConfigEntries when the order they were set in is known:
// it can show in the bytes.
func EncodeEntityConfig(config map[string]string) []byte {
	names := make([]string, 0, len(config))
	for n := range config {
		names = append(names, n)
	}
	slices.SortFunc(names, jdk.Compare)
	entries := make([]ConfigEntry, len(names))
	for i, n := range names {
		entries[i] = ConfigEntry{n, config[n]}
	}
	return EncodeEntityConfigEntries(entries)
}

// EncodeEntityConfigEntries is ConfigEntityZNode.encode:
// Map("version" -> 1, "config" -> properties), a Map2, so version first.
// The entries are the Properties' setProperty calls in order (a later
// value for a name replaces the earlier one in its place); the config
// object iterates as the Properties does on JDK 11 (javaPropertiesOrder).
// Values are strings.
func EncodeEntityConfigEntries(entries []ConfigEntry) []byte {
	names := make([]string, 0, len(entries))
	value := map[string]string{}
	for _, e := range entries {
		if _, ok := value[e.Name]; !ok {
			names = append(names, e.Name)
		}
		value[e.Name] = e.Value
	}
	members := make([]member, 0, len(names))
	for _, n := range javaPropertiesOrder(names) {
		members = append(members, member{n, jsonString(value[n])})
	}
	return jsonObject([]member{
		{"version", jsonInt(1)},
		{"config", jsonObject(members)},
	})
}

// DecodeEntityConfig is ConfigEntityZNode.decode as a map.
func DecodeEntityConfig(data []byte) (map[string]string, error) {
	entries, err := DecodeEntityConfigEntries(data)
	if err != nil {
		return nil, err
	}
	config := make(map[string]string, len(entries))
	for _, e := range entries {
		config[e.Name] = e.Value
	}
	return config, nil
}

// DecodeEntityConfigEntries is ConfigEntityZNode.decode: the members of
// "config" in the order Kafka sets them into a new Properties (the JSON
// object's order; a repeated name takes its first place and its last
// value, as Jackson's tree keeps it). Like Kafka, data that is not an
// object or has no "config" object gives no entries, and a value that is
// not a string is an error; unlike Kafka, unparsable data is an error
// too, not an empty config.
//
// Kafka alters a config by reading the znode into a Properties this way
// (AdminZkClient.fetchEntityConfig), setting and removing names, and
// writing it back, so the entries followed by the new settings give the
// order it writes. Not modelled: a removal, which leaves the table its
// size (a ConcurrentHashMap never shrinks), so the order after removing
// names from twelve or more can differ from writing the rest afresh.
func DecodeEntityConfigEntries(data []byte) ([]ConfigEntry, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	if v.Kind != jsonvalue.Object {
		return nil, nil
	}
	config, ok := v.Field("config")
	if !ok || config.Kind != jsonvalue.Object {
		return nil, nil
	}
	var entries []ConfigEntry
	for _, name := range config.Keys() {
		f, _ := config.Field(name)
		s, err := asString(f, "a config value")
		if err != nil {
			return nil, err
		}
		entries = append(entries, ConfigEntry{name, s})
	}
	return entries, nil
}

// DecodeConfigChangeNotification reads a version 2 notification
// (ConfigChangedNotificationHandler.processEntityConfigChangeVersion2):
// the entity type and the sanitized name of its "entity_path".
func DecodeConfigChangeNotification(data []byte) (entityType, name string, ok bool) {
	v, err := parseJSON(data)
	if err != nil || v.Kind != jsonvalue.Object {
		return "", "", false
	}
	f, found := v.Field("entity_path")
	if !found {
		return "", "", false
	}
	path, err := asString(f, "entity_path")
	if err != nil {
		return "", "", false
	}
	return strings.Cut(path, "/")
}

// EncodeConfigChangeNotification is
// ConfigEntityChangeNotificationSequenceZNode.encode:
// Map("version" -> 2, "entity_path" -> path), a Map2, where the path is
// "<entityType>/<sanitized name>", e.g. "topics/t".
func EncodeConfigChangeNotification(entityPath string) []byte {
	return jsonObject([]member{
		{"version", jsonInt(2)},
		{"entity_path", jsonString(entityPath)},
	})
}
