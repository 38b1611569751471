package config

import "testing"

// KafkaConfig's check of the cleaner's memory, including its division by
// a zero thread count.
func TestValidateStaticCleanerMemory(t *testing.T) {
	for _, c := range []struct {
		static Static
		want   string
	}{
		{Static{}, ""},
		{Static{"log.cleaner.dedupe.buffer.size": "1048577"}, ""},
		{Static{"log.cleaner.dedupe.buffer.size": "1048576"}, "requirement failed: log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread."},
		{Static{"log.cleaner.threads": "2", "log.cleaner.dedupe.buffer.size": "2097152"}, "requirement failed: log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread."},
		{Static{"log.cleaner.threads": "0"}, "java.lang.ArithmeticException: / by zero"},
	} {
		err := ValidateStatic(c.static, v38)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.static, got, c.want)
		}
	}
}
