package i18n

import (
	"regexp"
	"strings"
	"testing"
)

// uiSameInBoth are the UI strings whose Korean is the English on purpose:
// names and formats that read the same in both languages. Any other
// string with equal texts was not translated.
var uiSameInBoth = map[string]string{
	"delay":           "a number and a unit",
	"disk.v.null":     "Kafka's -1 for null",
	"disk.pc.sent":    "the system call's name (sendfile)",
	"hw":              "Kafka's name (high watermark)",
	"isr":             "Kafka's name (in-sync replicas)",
	"leo":             "Kafka's name (log end offset)",
	"lang.en":         "a language's own name",
	"lang.ko":         "a language's own name",
	"ml.change.isr":   "Kafka's name and a list",
	"ml.config.set":   "a config key and its value",
	"quorum.observer": "KRaft's role name, as kafka-metadata-quorum.sh prints it",
	"txn.id":          "a config key and its value",
	"zookeeper":       "the product's name (Apache ZooKeeper)",
}

// Every UI string has both languages, and the Korean differs from the
// English except for the names listed in uiSameInBoth.
func TestEveryUIStringIsTranslated(t *testing.T) {
	for _, key := range UIKeys() {
		en, ko, _ := UIText(key)
		switch {
		case en == "" || ko == "":
			t.Errorf("%s: missing a language (en %q, ko %q)", key, en, ko)
		case en == ko && uiSameInBoth[key] == "":
			t.Errorf("%s: the Korean is the English (%q); translate it, or list it in uiSameInBoth with the reason", key, en)
		case en != ko && uiSameInBoth[key] != "":
			t.Errorf("%s: listed as the same in both languages, but they differ", key)
		}
		// A format's verbs must match, or one language prints %!d(MISSING).
		if a, b := fmtVerbs(en), fmtVerbs(ko); a != b {
			t.Errorf("%s: the English takes %s and the Korean %s", key, a, b)
		}
	}
}

// fmtVerbs lists a format string's verbs in argument order (explicit
// indexes like %[2]d put in their place), as "d s d".
func fmtVerbs(f string) string {
	var args []string
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		if i < len(f) && f[i] == '[' {
			j := strings.IndexByte(f[i:], ']')
			if j < 0 {
				return "bad index"
			}
			n := 0
			for _, c := range f[i+1 : i+j] {
				n = n*10 + int(c-'0')
			}
			next = n - 1
			i += j + 1
		}
		for i < len(f) && strings.IndexByte("+-# 0123456789.", f[i]) >= 0 {
			i++
		}
		if i >= len(f) {
			break
		}
		for len(args) <= next {
			args = append(args, "?")
		}
		args[next] = string(f[i])
		next++
	}
	return strings.Join(args, " ")
}

// A Korean particle after a number depends on how the number is read (브로커
// 2가, 브로커 3이), which a format string cannot know: the table puts its
// numbers where no particle follows them (3번 브로커가, kafka-3 노드는).
// (The event feed chooses them: feed.FixKoreanParticles.)
func TestNoKoreanParticleAfterANumber(t *testing.T) {
	particle := regexp.MustCompile(`%(\[\d+\])?d(가|이|는|은|를|을|와|과|로|으로)([^\x{AC00}-\x{D7A3}]|$)`)
	for _, key := range UIKeys() {
		_, ko, _ := UIText(key)
		if m := particle.FindString(ko); m != "" {
			t.Errorf("%s: %q puts a particle after a number: %q", key, ko, m)
		}
	}
}
