import { mount } from 'svelte';
import './ui/shell/theme.css';
import App from './ui/shell/App.svelte';

mount(App, { target: document.getElementById('app')! });
