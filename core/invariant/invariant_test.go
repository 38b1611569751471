package invariant

import (
	"errors"
	"testing"
)

func TestFailPanicsWithAViolation(t *testing.T) {
	defer func() {
		r := recover()
		v, ok := r.(Violation)
		if !ok || v.What != "HW, LEO: 7, -5" {
			t.Fatalf("recovered %#v", r)
		}
		var err error = v
		if err.Error() != "invariant violated: HW, LEO: 7, -5" || !errors.As(err, new(Violation)) {
			t.Errorf("error %q", err)
		}
	}()
	Fail("HW, LEO", 7, -5)
}
