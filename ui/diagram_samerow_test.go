package ui

import (
	"reflect"
	"testing"
)

// sampleRow has every field set, each slice holding one element.
func sampleRow() dgRow {
	r := dgRow{Replicas: []dgReplica{{Runs: []dgRun{{"c", "d", "1", "t"}}, Cells: []dgCell{{"x", "0", "k"}}, Lost: []dgMark{{"1", "2"}}}}}
	fill(reflect.ValueOf(&r.dgRowLine).Elem())
	fill(reflect.ValueOf(&r.Replicas[0].dgReplicaLine).Elem())
	return r
}

// fill sets every field of the struct v to a non-zero value.
func fill(v reflect.Value) {
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("s")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int32:
			f.SetInt(1)
		default:
			panic("fill: a field of kind " + f.Kind().String())
		}
	}
}

// dgSameRow tells apart two rows that differ in any one field, the
// replicas' fields and their slices' elements included, as
// reflect.DeepEqual did.
func TestSameRowSeesEveryField(t *testing.T) {
	a := sampleRow()
	b := dgCloneRow(&a)
	if !dgSameRow(&a, &b) {
		t.Fatal("a row and its copy differ")
	}
	for _, v := range []reflect.Value{reflect.ValueOf(&b.dgRowLine).Elem(), reflect.ValueOf(&b.Replicas[0].dgReplicaLine).Elem()} {
		for i := range v.NumField() {
			f := v.Field(i)
			old := reflect.ValueOf(f.Interface())
			f.SetZero()
			if dgSameRow(&a, &b) || reflect.DeepEqual(a, b) {
				t.Errorf("a change of %s.%s was not seen", v.Type().Name(), v.Type().Field(i).Name)
			}
			f.Set(old)
		}
	}
	rp := &b.Replicas[0]
	for name, change := range map[string]func(){
		"Runs":      func() { rp.Runs[0].Op = "0.5" },
		"Run's tip": func() { rp.Runs[0].Tip = "" },
		"Cells":     func() { rp.Cells[0].Text = "1" },
		"Lost":      func() { rp.Lost[0].W = "3" },
		"Replicas":  func() { b.Replicas = append(b.Replicas, dgReplica{}) },
	} {
		c := dgCloneRow(&a)
		b = c
		rp = &b.Replicas[0]
		change()
		if dgSameRow(&a, &b) {
			t.Errorf("a change of %s was not seen", name)
		}
	}
}
