import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { createClient } from './lib/client.js';
import { AppState } from './state/app.svelte.js';

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');

const setup = createClient();
mount(App, {
  target,
  props: setup.ok ? { app: new AppState(setup.client), reason: null } : { app: null, reason: setup.reason },
});
