import PrintIcon from '@mui/icons-material/Print';
import { PrintTemplateMappingCreate } from './PrintTemplateMappingCreate';
import { PrintTemplateMappingEdit } from './PrintTemplateMappingEdit';
import { PrintTemplateMappingList } from './PrintTemplateMappingList';
import { mappingTitle } from './representation';

export const printTemplateMappings = {
  list: PrintTemplateMappingList,
  create: PrintTemplateMappingCreate,
  edit: PrintTemplateMappingEdit,
  icon: PrintIcon,
  recordRepresentation: mappingTitle,
};
