package jdk

import (
	"fmt"
	"strconv"
	"unicode/utf16"
)

// DecodeBase64URL is Base64.getUrlDecoder().decode(String): the string's
// ISO-8859-1 bytes (a char outside it becomes '?') decoded as URL-safe
// base64, padding optional. A bad input gives the IllegalArgumentException
// message the decoder throws, and ok false.
func DecodeBase64URL(s string) (out []byte, msg string, ok bool) {
	var src []byte
	for _, r := range s {
		switch {
		case r > 0xFFFF:
			src = append(src, '?', '?') // two UTF-16 chars, neither in ISO-8859-1
		case r > 0xFF:
			src = append(src, '?')
		default:
			src = append(src, byte(r))
		}
	}
	// decodedOutLength checks the length first.
	sl := len(src)
	if sl == 0 {
		return nil, "", true
	}
	if sl < 2 {
		return nil, "Input byte[] should at least have 2 bytes for base64 bytes", false
	}
	// decode0: four characters make three bytes; '=' ends the data.
	bits, shiftto, sp := 0, 18, 0
	const wrongEnding = "Input byte array has wrong 4-byte ending unit"
loop:
	for sp < sl {
		c := src[sp]
		sp++
		b := base64URLValue(c)
		if b < 0 {
			if c != '=' {
				return nil, "Illegal base64 character " + strconv.FormatInt(int64(int8(c)), 16), false
			}
			switch shiftto {
			case 18:
				return nil, wrongEnding, false
			case 6:
				if sp == sl {
					return nil, wrongEnding, false
				}
				sp++
				if src[sp-1] != '=' {
					return nil, wrongEnding, false
				}
			}
			break loop
		}
		bits |= b << shiftto
		shiftto -= 6
		if shiftto < 0 {
			out = append(out, byte(bits>>16), byte(bits>>8), byte(bits))
			shiftto, bits = 18, 0
		}
	}
	switch shiftto {
	case 6:
		out = append(out, byte(bits>>16))
	case 0:
		out = append(out, byte(bits>>16), byte(bits>>8))
	case 12:
		return nil, "Last unit does not have enough valid bits", false
	}
	if sp < sl {
		return nil, fmt.Sprintf("Input byte array has incorrect ending byte at %d", sp), false
	}
	return out, "", true
}

func base64URLValue(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '-':
		return 62
	case c == '_':
		return 63
	}
	return -1
}

// UuidFromString is Kafka's Uuid.fromString: at most 24 chars of URL-safe
// base64 that decode to 16 bytes. A bad input gives the
// IllegalArgumentException message, and ok false.
func UuidFromString(s string) (u [16]byte, msg string, ok bool) {
	if units := utf16.Encode([]rune(s)); len(units) > 24 {
		// substring(0, 24) may split a surrogate pair; Go prints the lone
		// half as U+FFFD where Java's stderr encoder prints '?'.
		return u, "Input string with prefix `" + string(utf16.Decode(units[:24])) + "` is too long to be decoded as a base64 UUID", false
	}
	b, msg, ok := DecodeBase64URL(s)
	if !ok {
		return u, msg, false
	}
	if len(b) != 16 {
		return u, fmt.Sprintf("Input string `%s` decoded as %d bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID", s, len(b)), false
	}
	copy(u[:], b)
	return u, "", true
}
