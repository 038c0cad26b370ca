package mcp

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// DefaultEnvNames returns the names of the environment variables a local
// (stdio) server gets from this process unless it inherits everything
// (ServerConfig.InheritEnv, LoadOptions.InheritEnv): on Windows APPDATA,
// HOMEDRIVE, HOMEPATH, LOCALAPPDATA, PATH, PATHEXT, PROCESSOR_ARCHITECTURE,
// PROGRAMFILES, SYSTEMDRIVE, SYSTEMROOT, TEMP, TMP, USERNAME and
// USERPROFILE; elsewhere HOME, LANG, LC_ALL, LOGNAME, PATH, SHELL, TERM,
// TMPDIR, TZ and USER. These are the variables of the MCP TypeScript SDK's
// getDefaultEnvironment plus the locale, time zone and temporary folder.
// The slice is the caller's.
func DefaultEnvNames() []string {
	if runtime.GOOS == "windows" {
		return []string{"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT",
			"PROCESSOR_ARCHITECTURE", "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP",
			"USERNAME", "USERPROFILE"}
	}
	return []string{"HOME", "LANG", "LC_ALL", "LOGNAME", "PATH", "SHELL", "TERM", "TMPDIR", "TZ", "USER"}
}

// serverEnv is the environment of the local server cfg: the whole
// environment when cfg.InheritEnv or o.InheritEnv is set, else the
// DefaultEnvNames that are set (values starting with "()", exported shell
// functions, are left out, as the TypeScript SDK does); then cfg.Env,
// expanded, in name order, replacing variables of the same name.
func serverEnv(cfg ServerConfig, o *LoadOptions) ([]string, error) {
	var env []string
	if cfg.InheritEnv || o.InheritEnv {
		env = os.Environ()
	} else {
		for _, k := range DefaultEnvNames() {
			if v, ok := o.LookupEnv(k); ok && !strings.HasPrefix(v, "()") {
				env = append(env, k+"="+v)
			}
		}
	}
	keys := make([]string, 0, len(cfg.Env))
	for k := range cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := expandEnv(cfg.Env[k], o.LookupEnv)
		if err != nil {
			return nil, fmt.Errorf("env %s: %v", k, err)
		}
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, k+"=") })
		env = append(env, k+"="+v)
	}
	return env, nil
}
