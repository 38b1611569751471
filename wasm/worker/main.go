package main

import "github.com/syumai/workers"

func main() { workers.Serve(newServer(pageAssets(), newLinkStore(), newResponseCache())) }
