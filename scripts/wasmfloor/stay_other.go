//go:build !js

package main

// stay returns at once natively: the process ends with main.
func stay() {}
