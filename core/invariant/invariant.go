package invariant

import "strconv"

// Violation is a broken invariant: what it is and what was found.
type Violation struct {
	What string
}

func (v Violation) Error() string { return "invariant violated: " + v.What }

// Fail stops the run: it panics with a Violation that says what and the
// values found ("what: 1, 2, 3"). The values are integers, not any: a
// check is compiled into every build, the page's too, and boxing values
// for fmt at each call site costs the page's download more than it
// tells.
func Fail(what string, values ...int64) {
	b := []byte(what)
	for i, v := range values {
		if i == 0 {
			b = append(b, ": "...)
		} else {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, v, 10)
	}
	panic(Violation{What: string(b)})
}
