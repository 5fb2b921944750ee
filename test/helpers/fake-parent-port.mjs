// Preloaded (node --import) into a forked child, makes it look like an Electron utility
// process to the app's runner scripts: process.parentPort over the IPC channel (messages
// queued until a listener comes, events carrying `data`), no process.send, and no exit
// when idle (the channel stays referenced), as in a utility process.
import { EventEmitter } from 'node:events';

const send = process.send.bind(process);
const port = new EventEmitter();
const queued = [];
port.postMessage = (message) => send(message);
port.on('newListener', (event) => {
  if (event === 'message')
    queueMicrotask(() => {
      for (const data of queued.splice(0)) port.emit('message', { data, ports: [] });
    });
});
process.on('message', (data) => {
  if (port.listenerCount('message') === 0) queued.push(data);
  else port.emit('message', { data, ports: [] });
});
process.parentPort = port;
process.send = undefined;
