import PrintIcon from '@mui/icons-material/Print';
import { lazyPage } from '../../components/lazyPage';
import { mappingTitle } from './representation';

/** The print-template-mapping screens, each loaded on first use. */
export const printTemplateMappings = {
  list: lazyPage(async () => (await import('./PrintTemplateMappingList')).PrintTemplateMappingList),
  create: lazyPage(async () => (await import('./PrintTemplateMappingCreate')).PrintTemplateMappingCreate),
  edit: lazyPage(async () => (await import('./PrintTemplateMappingEdit')).PrintTemplateMappingEdit),
  show: lazyPage(async () => (await import('./PrintTemplateMappingShow')).PrintTemplateMappingShow),
  icon: PrintIcon,
  recordRepresentation: mappingTitle,
};
