package console

import (
	"strconv"
	"strings"

	"kafkascope/core/sim"
)

// run is processCmd for the command line's command: Kafka's
// processZKCmd override (an unknown command prints Kafka's usage and
// ends with CommandNotFoundException), then ZooKeeperMain.processZKCmd
// (release-3.5.9): the commands the shell handles itself, then the
// CliCommand of that name, parse then exec. A CliException prints its
// message on stderr and sets the exit code; the program then exits with
// it (ZooKeeperMain.run: System.exit(exitCode)).
func (p *zkShellProc) run(env *sim.Env, words []string) {
	cmd := words[0]
	if _, ok := zkCommandMap[cmd]; !ok {
		p.t.printLines(kafkaTLSUsage())
		// Kafka's wrapper passes "Command not found " + cmd to
		// CommandNotFoundException, whose constructor adds its own
		// "Command not found: " (cli/CommandNotFoundException.java),
		// with exit code 127.
		p.fail("Command not found: Command not found "+cmd, 127)
		return
	}
	switch cmd {
	case "quit":
		p.closeThen(env, func(*sim.Env) { p.exit(0) })
		return
	case "redo":
		if len(words) >= 2 {
			if exc := javaIntegerDecode(words[1]); exc != "" {
				p.crash(exc)
				return
			}
			// Any index is out of range: no command came before.
			p.fail("Command index out of range", 1)
			return
		}
	case "history":
		// commandCount is 0 and the history empty: i runs from -10 to 0.
		p.t.println("0 - null")
	case "printwatches":
		if len(words) == 1 {
			p.t.println("printwatches is on")
		} else {
			p.printWatches = words[1] == "on"
		}
	case "connect":
		p.fail("kafkascope: zookeeper-shell.sh's connect is not simulated: run the shell again with the other connect string", 1)
		return
	}
	if why, ok := zkNotSimulated[cmd]; ok {
		p.fail("kafkascope: zookeeper-shell.sh's "+cmd+" is not simulated: "+why, 1)
		return
	}
	switch cmd {
	case "ls":
		p.ls(env, words)
	case "ls2":
		p.ls2(env, words)
	case "get":
		p.get(env, words)
	case "stat":
		p.stat(env, words)
	case "create":
		p.create(env, words)
	case "set":
		p.set(env, words)
	case "delete":
		p.delete(env, words)
	case "deleteall", "rmr":
		p.deleteAll(env, words)
	case "close":
		// CloseCommand: zk.close(), then the program exits with 0.
		p.closeThen(env, func(*sim.Env) { p.exit(0) })
	default:
		// history, printwatches, redo without an index: nothing more.
		p.exit(0)
	}
}

// zkNotSimulated are the CLI commands kafkascope does not run, and why.
var zkNotSimulated = map[string]string{
	"getAcl":        "ACLs are not modelled (every znode is open to everyone)",
	"setAcl":        "ACLs are not modelled (every znode is open to everyone)",
	"addauth":       "authentication and ACLs are not modelled",
	"sync":          "the sync operation is not modelled",
	"setquota":      "quotas are not modelled",
	"listquota":     "quotas are not modelled",
	"delquota":      "quotas are not modelled",
	"reconfig":      "dynamic reconfiguration is not modelled",
	"config":        "dynamic reconfiguration (the /zookeeper/config node's reader) is not modelled",
	"removewatches": "removing watches is not modelled",
}

// javaIntegerDecode is Integer.decode's failure ("" when s decodes): a
// sign, then 0x, 0X or # for hex or a leading 0 for octal, then digits.
// A value that does not fit is retried with its minus sign (for
// MIN_VALUE), and the exception names what the last attempt parsed.
func javaIntegerDecode(s string) string {
	if s == "" {
		return "java.lang.NumberFormatException: Zero length string"
	}
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	base := 10
	switch {
	case strings.HasPrefix(s[i:], "0x"), strings.HasPrefix(s[i:], "0X"):
		i, base = i+2, 16
	case strings.HasPrefix(s[i:], "#"):
		i, base = i+1, 16
	case strings.HasPrefix(s[i:], "0") && len(s) > i+1:
		i, base = i+1, 8
	}
	rest := s[i:]
	if strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "+") {
		return "java.lang.NumberFormatException: Sign character in wrong position"
	}
	if _, err := strconv.ParseInt(rest, base, 32); err == nil && rest != "" {
		return ""
	}
	// The retry with the sign put back (for MIN_VALUE) is what fails.
	if s[0] == '-' {
		rest = "-" + rest
		if _, err := strconv.ParseInt(rest, base, 32); err == nil {
			return ""
		}
	}
	return javaNumberFormat(rest)
}
