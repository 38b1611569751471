// Package jmx is the JMX side of a simulated Kafka process: the MBeans a
// broker or controller registers (each an ObjectName and its attributes,
// rendered as Java's toString renders their values), the ObjectName
// syntax and pattern matching of javax.management.ObjectName, and the
// request a JMX client such as Kafka's JmxTool sends to a process's JMX
// port.
//
// A real JMX connection is RMI: a registry lookup, then remote calls on
// the server's connection object (queryNames, getMBeanInfo,
// getAttributes). Here a connection is one Query message answered by the
// process on Port, and every poll another; the answer names the server
// incarnation, so a client that polls a restarted process is refused as
// RMI refuses a stub of a dead server object. Nothing here reads the
// wall clock: values are read at the process's virtual time.
package jmx
