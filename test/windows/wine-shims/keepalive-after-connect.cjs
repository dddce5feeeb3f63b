/*
 * TEST TOOLING ONLY — loaded into Windows Node by the Windows stage (`--require`), never shipped.
 *
 * Wine 8's sockets fail a connection whose TCP keep-alive is set while it is still connecting:
 * `net.connect(...)` followed at once by `socket.setKeepAlive(true, 60000)` (what undici does for
 * every connection) ends in "connect UNKNOWN" under Wine, while the same calls work on Windows
 * itself and under Wine once the socket is connected. This applies such a keep-alive at 'connect'
 * instead, so the station's HTTP client can be exercised under Wine. Measured with Windows Node
 * 22.23.3 under Wine 8.0 (docs/windows.md).
 */
'use strict';
// A CommonJS file so Windows Node can --require it by its path before anything else loads.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const net = require('node:net');

const setKeepAlive = net.Socket.prototype.setKeepAlive;
net.Socket.prototype.setKeepAlive = function keepAliveOnceConnected(enable, initialDelay) {
  if (this.connecting) {
    this.once('connect', () => setKeepAlive.call(this, enable, initialDelay));
    return this;
  }
  return setKeepAlive.call(this, enable, initialDelay);
};
