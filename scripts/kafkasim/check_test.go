package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check fails a transcript whose narration claims what the cluster does not
// show at the end of the step, names the claim's line, and -rewrite, which
// fills in outputs, leaves claims for a person to decide.
func TestCheckFailsAFalseStateClaim(t *testing.T) {
	src := "## The new topic's only replica leads.\n## ko: 새 토픽의 유일한 복제본이 리더입니다.\n## state: leader t-0 2\n$ cluster create --brokers 1\n$ kafka-topics.sh --create --topic t\nCreated topic t.\n"
	path := filepath.Join(t.TempDir(), "claim.txt")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"check", path}, {"check", "-rewrite", path}} {
		var out, errb bytes.Buffer
		rc := run(args, strings.NewReader(""), &out, &errb)
		if rc != 1 || !strings.Contains(out.String(), path+":3: ## state: leader t-0 2") || !strings.Contains(out.String(), "it is 1") {
			t.Fatalf("%v: exit %d, output:\n%s%s", args, rc, out.String(), errb.String())
		}
	}
	if data, _ := os.ReadFile(path); string(data) != src {
		t.Fatalf("-rewrite changed the file:\n%s", data)
	}
	fixed := strings.Replace(src, "leader t-0 2", "leader t-0 1", 1)
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if rc := run([]string{"check", path}, strings.NewReader(""), &out, &out); rc != 0 {
		t.Fatalf("a true claim: exit %d\n%s", rc, out.String())
	}
}
