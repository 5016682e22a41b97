export * from './common';
export * from './runtime-lifecycle';
export * from './data-operations';
export * from './checkpoints';
export * from './service-info';
export * from './nodes';
export * from './checkout-children';
export * from './events';
