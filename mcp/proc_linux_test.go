package mcp

import (
	"os"
	"strconv"
)

func readProcStat(pid int) (string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return string(b), err
}
