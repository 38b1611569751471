package ui

import "kafkascope/core/jsonvalue"

// EventProps is a DOM event's properties as the page hands them to a
// handler (the page's renderer reads them from the event once, into
// nested maps): Vugu's DOMEvent property getters over them, for the page's
// events and the tests' alike.
type EventProps map[string]any

// Prop walks keys down the summary ("target", "value"); nil where a key
// is missing.
func (s EventProps) Prop(keys ...string) any {
	var v any = map[string]any(s)
	for _, k := range keys {
		m, _ := v.(map[string]any)
		if m == nil {
			return nil
		}
		v = m[k]
	}
	return v
}

func (s EventProps) PropString(keys ...string) string { v, _ := s.Prop(keys...).(string); return v }

func (s EventProps) PropFloat64(keys ...string) float64 {
	v, _ := s.Prop(keys...).(float64)
	return v
}

func (s EventProps) PropBool(keys ...string) bool { v, _ := s.Prop(keys...).(bool); return v }

// EventSummary is the summary itself.
func (s EventProps) EventSummary() map[string]any { return s }

// ParseEventProps reads the summary the page hands over as JSON (its
// script's JSON.stringify) as json.Unmarshal into a map[string]any read
// it: nested objects as maps, numbers as float64; null is a nil map.
func ParseEventProps(text string) (EventProps, error) {
	v, err := jsonvalue.Parse(text)
	if err != nil || v.Kind == jsonvalue.Null {
		return nil, err
	}
	if v.Kind != jsonvalue.Object {
		return nil, jsonvalue.ErrType
	}
	m, err := v.Any()
	if err != nil {
		return nil, err
	}
	return m.(map[string]any), nil
}
