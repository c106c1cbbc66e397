/**
 * What a host sets up of the network before it serves (the desktop app's main
 * process; the CLI does it in its context): the proxy the environment names.
 */
export { useEnvironmentProxy } from '../providers/environment-proxy';
