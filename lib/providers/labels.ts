export { PROVIDER_LABEL } from './catalog';
