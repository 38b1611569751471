package console

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/jdk"
)

// adminConfigLogger is the logger KafkaAdminClient logs under.
const adminConfigLogger = "org.apache.kafka.clients.admin.KafkaAdminClient"

// adminConfig applies an admin client's properties (a tool's
// --command-config file) to cfg, checking them as AdminClientConfig does:
// in the order ConfigDef defines them, the first bad value is the
// ConfigException. Unknown names are ignored (Kafka only notes them at
// INFO). warnings are what the client logs at WARN while it is created;
// errAfter is a ConfigException KafkaAdminClient's constructor throws
// (Admin.create wraps it: "Failed to create new KafkaAdminClient"), err
// one that AdminClientConfig throws before that (not wrapped).
func adminConfig(cfg *client.AdminConfig, props map[string]string) (warnings []string, err, errAfter error) {
	setMs := func(d *time.Duration) func(int64) { return func(n int64) { *d = ms(n) } }
	checks := []func() error{
		func() error {
			if v, ok := props["client.id"]; ok {
				cfg.ClientID = v
			}
			return nil
		},
		func() error { return longProp(props, "metadata.max.age.ms", 0, setMs(&cfg.MetadataMaxAge)) },
		func() error { return longProp(props, "reconnect.backoff.ms", 0, setMs(&cfg.ReconnectBackoff)) },
		func() error { return longProp(props, "reconnect.backoff.max.ms", 0, setMs(&cfg.ReconnectBackoffMax)) },
		func() error { return longProp(props, "retry.backoff.ms", 0, setMs(&cfg.RetryBackoff)) },
		func() error { return longProp(props, "retry.backoff.max.ms", 0, setMs(&cfg.RetryBackoffMax)) },
		func() error { return intProp(props, "request.timeout.ms", 0, setMs(&cfg.RequestTimeout)) },
		func() error { return intProp(props, "retries", 0, func(n int64) { cfg.Retries = int(n) }) },
		func() error { return intProp(props, "default.api.timeout.ms", 0, setMs(&cfg.DefaultAPITimeout)) },
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return nil, err, nil
		}
	}
	if cfg.ClientID == "" {
		cfg.ClientID = "adminclient-1"
	}
	if cfg.DefaultAPITimeout < cfg.RequestTimeout {
		if _, ok := props["default.api.timeout.ms"]; ok {
			return nil, nil, &configError{"The specified value of default.api.timeout.ms must be no smaller than the value of request.timeout.ms."}
		}
		// Kafka logs the field it is about to set, still 0.
		warnings = append(warnings, fmt.Sprintf("[AdminClient clientId=%s] Overriding the default value for default.api.timeout.ms (0) with the explicitly configured request timeout %d",
			cfg.ClientID, cfg.RequestTimeout.Milliseconds()))
		cfg.DefaultAPITimeout = cfg.RequestTimeout
	}
	return warnings, nil, nil
}

// commandConfigProps reads a --command-config file from the terminal's
// files as Utils.loadProps does; ok is false if the file is missing.
func (t *toolRun) commandConfigProps(path string) (props map[string]string, exc string, ok bool) {
	text, found := t.s.readWorkspace(path)
	if !found {
		return nil, "", false
	}
	props, exc = jdk.LoadProperties(text)
	return props, exc, true
}

// trimList is a LIST config's value as ConfigDef parses it: the items
// between commas, trimmed; "" is no items.
func trimList(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// applyAdminConfig applies props to cfg as Admin.create does, printing its
// WARN lines, and on a bad config what the tools' catch-all prints; it
// reports whether the client could be created.
func (t *toolRun) applyAdminConfig(cfg *client.AdminConfig, props map[string]string) bool {
	warnings, err, errAfter := adminConfig(cfg, props)
	if err != nil {
		t.catchAll("org.apache.kafka.common.config.ConfigException: " + err.Error())
		return false
	}
	for _, w := range warnings {
		t.println(client.FormatLogLine(t.s.world().Now(), client.LevelWarn, w, adminConfigLogger))
	}
	if errAfter != nil {
		t.catchAll("org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"org.apache.kafka.common.config.ConfigException: "+errAfter.Error())
		return false
	}
	return true
}
