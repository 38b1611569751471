package scenario

import "testing"

// Every built-in scenario is narrated in both languages, titled in both,
// and reproduces its transcript exactly.
func TestScenariosAreBilingualAndPass(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 4 {
		t.Fatalf("only %d scenarios", len(all))
	}
	for _, s := range all {
		tr := s.Transcript
		if tr.Title == "" || tr.TitleKo == "" {
			t.Errorf("%s: missing title or title.ko", s.ID)
		}
		for i, st := range tr.Steps {
			if (st.Text == "") != (st.TextKo == "") {
				t.Errorf("%s: step %d is narrated in only one language", s.ID, i+1)
			}
		}
		if _, bad := tr.Run(); len(bad) > 0 {
			t.Errorf("%s: %d command(s) differ, first at line %d: $ %s", s.ID, len(bad), bad[0].Cmd.Line, bad[0].Cmd.Cmd)
		}
	}
}
