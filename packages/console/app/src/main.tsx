import { render } from 'preact';
import { App } from './app';
import './styles/console.css';

const container = document.getElementById('app');
if (container) render(<App />, container);
